# Run 8 (bench/mdh/README.md), for gen-rounds.sh: Jacobi 3D at 512^3 with
# its input staged in shared memory with the halo (M_x = 5), block
# shapes (k x j x i outputs a block) whose box (tile + 2 a dim) fits in
# 48 KiB, beside run 6's best with x read from global memory.
J="-D X=512 -D Y=512 -D Z=512"
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" j3_c -D L_k=256 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" h_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_64x16x8 -D L_k=64 -D L_j=4 -D P_j=4 -D O_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_32x16x16 -D L_k=32 -D L_j=8 -D P_j=2 -D O_j=2 -D P_i=16 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_128x8x4 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_64x8x8 -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_32x16x8 -D L_k=32 -D L_j=8 -D P_j=2 -D O_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_32x16x16b -D L_k=32 -D L_j=4 -D P_j=4 -D O_j=2 -D P_i=16 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_64x16x8b -D L_k=64 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_128x4x8 -D L_k=128 -D L_j=2 -D P_j=2 -D O_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" h_64x16x8o1 -D L_k=64 -D L_j=4 -D P_j=4 -D P_i=8 -D M_x=5
# the second call: smaller boxes (more blocks an SM), 32 along k
v jacobi3d "$J" s_32x8x8 -D L_k=32 -D L_j=8 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" s_32x8x8w -D L_k=32 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" s_32x16x4 -D L_k=32 -D L_j=8 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2 -D M_x=5
v jacobi3d "$J" s_64x8x4 -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2 -D M_x=5
v jacobi3d "$J" s_32x16x8w -D L_k=32 -D L_j=4 -D P_j=4 -D O_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" s_32x8x16 -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2 -D M_x=5
v jacobi3d "$J" s_32x16x8o1 -D L_k=32 -D L_j=8 -D P_j=2 -D P_i=8 -D O_i=2 -D M_x=5
v jacobi3d "$J" s_32x8x4 -D L_k=32 -D L_j=8 -D P_i=4 -D O_i=2 -D M_x=5
