# Run 10 (bench/mdh/README.md), for gen-rounds.sh: Jacobi 3D at 512^3 with
# the views loaded ahead (V_x = 2: the work-item's whole tile of loads in
# registers before its arithmetic), beside the same tiles without, and
# run 6's best.
J="-D X=512 -D Y=512 -D Z=512"
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" v_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_w32x8x16 -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2 -D M_y=2 -D V_x=2
v jacobi3d "$J" v_w32x8x16b -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2 -D M_y=2 -D V_x=2 -D B_sm=3
v jacobi3d "$J" v_w64x4x16 -D L_k=64 -D L_j=4 -D P_i=16 -D O_i=2 -D M_y=2 -D V_x=2
v jacobi3d "$J" v_w128x2x16 -D L_k=128 -D L_j=2 -D P_i=16 -D O_i=2 -D M_y=2 -D V_x=2
v jacobi3d "$J" v_w32x4x16 -D L_k=32 -D L_j=4 -D P_i=16 -D O_i=2 -D M_y=2 -D V_x=2
v jacobi3d "$J" v_w32x8x8 -D L_k=32 -D L_j=8 -D P_i=8 -D O_i=2 -D M_y=2 -D V_x=2
v jacobi3d "$J" v_w128x2x8 -D L_k=128 -D L_j=2 -D P_i=8 -D O_i=2 -D M_y=2 -D V_x=2
v jacobi3d "$J" v_128x4x4 -D L_k=128 -D L_j=2 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_128x8x4 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_64x8x4 -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_256x4x2 -D L_k=256 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_128x16x2 -D L_k=128 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
# the second call: short tiles with V_x = 2 (the first call's best, run
# 6's tiles at 0.895), storing at once (M_y = 2) or after the tile, and
# wider rows along k
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" v_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_128x4x2 -D L_k=128 -D L_j=2 -D P_j=2 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_128x8x2s -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_256x4x2s -D L_k=256 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_128x16x2s -D L_k=128 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_256x8x2 -D L_k=256 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_256x8x2s -D L_k=256 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_128x8x4s -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_256x2x4 -D L_k=256 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_256x4x4 -D L_k=256 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_128x8x2j1 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=1 -D P_i=2 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_64x16x2 -D L_k=64 -D L_j=4 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
# the third call: the second call's best two again (0.905, 0.902), and
# their neighbours
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" v_128x16x2s -D L_k=128 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_256x8x2s -D L_k=256 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_128x16x2 -D L_k=128 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2
v jacobi3d "$J" v_64x32x2s -D L_k=64 -D L_j=4 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_128x16x2sb -D L_k=128 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2 -D B_sm=2
v jacobi3d "$J" v_128x8x4s -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_128x32x1s -D L_k=128 -D L_j=2 -D P_j=16 -D O_j=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_256x16x1s -D L_k=256 -D P_j=16 -D O_j=2 -D V_x=2 -D M_y=2
v jacobi3d "$J" v_128x8x2s -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2 -D V_x=2 -D M_y=2
