s/(_fused_kernel<(unsigned|size_t), )16>/\132>/g
s/(_fused_kernel<(unsigned|size_t), )8>/\116>/g
s/(_fused_kernel<(unsigned|size_t), )4>/\18>/g
s/fx_row_grid\(rows, cols, 16,/fx_row_grid(rows, cols, 32,/
s/fx_row_grid\(rows, cols, 8,/fx_row_grid(rows, cols, 16,/
s/fx_row_grid\(rows, cols, 4,/fx_row_grid(rows, cols, 8,/
s/cols % 16 == 0/cols % 32 == 0/
s/cols % 8 == 0/cols % 16 == 0/
s/cols % 4 == 0/cols % 8 == 0/
