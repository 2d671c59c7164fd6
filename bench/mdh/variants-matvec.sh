# MatVec at 8192^2: a row (or two) a block, the local tree
variant matvec "8192 8192" "-D L_i=1 -D L_k=256 -D P_k=4"
variant matvec "8192 8192" "-D L_i=2 -D L_k=128 -D P_k=8"
