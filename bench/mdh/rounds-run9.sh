# Run 9 (bench/mdh/README.md), for gen-rounds.sh: Jacobi 3D at 512^3
# streamed along i: a block owns an x-y tile (L_k x L_j threads, one
# column each) and walks P_i planes (O_i = 2, L_i = 1), the ++ tile loop
# unrolled so that the views one plane apart share their loads (the
# rotating window), beside run 6's best.
J="-D X=512 -D Y=512 -D Z=512"
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" w_32x8x16 -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2
v jacobi3d "$J" w_32x8x8 -D L_k=32 -D L_j=8 -D P_i=8 -D O_i=2
v jacobi3d "$J" w_64x4x16 -D L_k=64 -D L_j=4 -D P_i=16 -D O_i=2
v jacobi3d "$J" w_128x2x16 -D L_k=128 -D L_j=2 -D P_i=16 -D O_i=2
v jacobi3d "$J" w_32x4x16 -D L_k=32 -D L_j=4 -D P_i=16 -D O_i=2
v jacobi3d "$J" w_32x16x16 -D L_k=32 -D L_j=8 -D P_j=2 -D O_j=1 -D P_i=16 -D O_i=2
v jacobi3d "$J" w_64x8x16 -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=1 -D P_i=16 -D O_i=2
v jacobi3d "$J" w_32x8x16b2 -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2 -D B_sm=4
# the second call: shorter walks with more outputs a thread (loads of
# several columns in flight), between run 6's best and the walks above
v jacobi3d "$J" x_128x8x4 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" x_128x4x4 -D L_k=128 -D L_j=2 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" x_64x8x4 -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" x_32x16x4 -D L_k=32 -D L_j=8 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" x_32x8x4 -D L_k=32 -D L_j=8 -D P_i=4 -D O_i=2
v jacobi3d "$J" x_256x4x2 -D L_k=256 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" x_128x8x2k2 -D L_k=64 -D P_k=2 -D O_k=1 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" x_128x16x2 -D L_k=128 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" x_128x8x2b -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D B_sm=4
v jacobi3d "$J" x_128x4x2 -D L_k=128 -D L_j=2 -D P_j=2 -D O_j=2 -D P_i=2 -D O_i=2
# the third call: each point stored as soon as it is computed (M_y = 2)
# beside the same tiles storing after the tile
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" w_32x8x16 -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2
v jacobi3d "$J" x_128x8x4 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" s_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_32x8x16 -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_32x8x8 -D L_k=32 -D L_j=8 -D P_i=8 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_128x8x4 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_128x4x4 -D L_k=128 -D L_j=2 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_256x4x2 -D L_k=256 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_64x8x4 -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2 -D M_y=2
# the fourth call: walks with M_y = 2 and two columns a thread (P_k or
# P_j = 2, O = 1: twice the independent loads a plane)
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" s_32x8x16 -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_64x8x16k -D L_k=32 -D P_k=2 -D L_j=8 -D P_i=16 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_32x16x16j -D L_k=32 -D L_j=8 -D P_j=2 -D P_i=16 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_64x8x8k -D L_k=32 -D P_k=2 -D L_j=8 -D P_i=8 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_64x16x8 -D L_k=32 -D P_k=2 -D L_j=8 -D P_j=2 -D P_i=8 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_128x8x8 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=8 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_128x4x16 -D L_k=128 -D L_j=2 -D P_j=2 -D O_j=2 -D P_i=16 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_64x8x16k4 -D L_k=32 -D P_k=2 -D L_j=4 -D P_j=2 -D P_i=16 -D O_i=2 -D M_y=2
v jacobi3d "$J" s_128x8x16k -D L_k=64 -D P_k=2 -D L_j=4 -D P_j=2 -D P_i=16 -D O_i=2 -D M_y=2
