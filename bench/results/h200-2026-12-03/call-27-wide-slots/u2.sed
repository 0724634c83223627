s/^(    )for \(I row = \(I\)blockIdx\.y/\1#pragma unroll 2\n\1for (I row = (I)blockIdx.y/
