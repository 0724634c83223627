# ptxas -v output (nvcc -Xptxas -v) -> one line "kernel bytes" for each kernel
# whose 32-bit-index instance (template argument `j`, the one below 2^31
# elements) spills registers to local memory. -v only=REGEX keeps the kernels
# whose name matches it (the unfused ones: _k[0-9]+_). Used by bench/spills.sh,
# tests/nvcc.sh and tests/randgen.sh.
/Compiling entry function/ { k = $7; gsub("\047", "", k) }
/bytes spill stores/ && $5 + 0 > 0 && k ~ /Ij/ && k ~ only { print k, $5 }
