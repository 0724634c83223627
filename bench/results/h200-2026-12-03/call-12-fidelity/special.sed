s/^\( *\)g.nspecial = 0;/\1;/
