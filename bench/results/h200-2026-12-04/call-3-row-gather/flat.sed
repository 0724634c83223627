s/if \(!fx_scalar_only \&\& cols % /if (false \&\& cols % /
