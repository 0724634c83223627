s/fx_row_grid\(rows, cols, ([0-9]+), [0-9]+,/fx_row_grid(rows, cols, \1, 1,/
