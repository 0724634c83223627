s/^    for \(I row = \(I\)blockIdx.y \* rpb \+ ty; row < rows; row \+= \(I\)gridDim.y \* rpb\) \{/    const I per_ = (rows + (I)gridDim.y * rpb - 1) \/ ((I)gridDim.y * rpb);\n    for (I q_ = (I)blockIdx.y * per_, row; q_ < (I)blockIdx.y * per_ + per_ \&\& (row = q_ * rpb + ty) < rows; q_++) {/
s/fx_row_grid\(rows, cols, ([0-9]+), [0-9]+,/fx_row_grid(rows, cols, \1, 16,/
