# The variants of runs 5 and 6 (bench/mdh/README.md), for gen-rounds.sh.
# Run 4 had the same MatMul tiles with the k loop unrolled by hand (sed),
# before R_k = 3.
MM="-D M=4096 -D N=4096 -D K=4096"
T="-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=8 -D M_A=4 -D M_B=3"
# run 5: R_k = 3 (the k loop unrolled) beside R_k = 1, with B_sm and M_2
v matmul "$MM" r1 $T -D O_i=3 -D O_j=3 -D P_k=16 -D R_k=1
v matmul "$MM" r3 $T -D O_i=3 -D O_j=3 -D P_k=16 -D R_k=3
v matmul "$MM" r3b2 $T -D O_i=3 -D O_j=3 -D P_k=16 -D R_k=3 -D B_sm=2
v matmul "$MM" r3o23 $T -D O_i=2 -D O_j=3 -D P_k=16 -D R_k=3
v matmul "$MM" r3k8 $T -D O_i=3 -D O_j=3 -D P_k=8 -D R_k=3
v matmul "$MM" r3k8db $T -D O_i=3 -D O_j=3 -D P_k=8 -D R_k=3 -D M_2=2 -D B_sm=2
v matmul "$MM" r3k4db $T -D O_i=3 -D O_j=3 -D P_k=4 -D R_k=3 -D M_2=2 -D B_sm=2
v matmul "$MM" r3_168 -D L_i=16 -D L_j=8 -D P_i=8 -D P_j=8 -D M_A=4 -D M_B=3 \
	-D O_i=3 -D O_j=3 -D P_k=16 -D R_k=3
v matmul "$MM" r3_816 -D L_i=8 -D L_j=16 -D P_i=8 -D P_j=8 -D M_A=4 -D M_B=3 \
	-D O_i=3 -D O_j=3 -D P_k=16 -D R_k=3
# runs 5 and 6: Jacobi 3D block shapes (k x j x i outputs a block)
J="-D X=512 -D Y=512 -D Z=512"
v jacobi3d "$J" j3_base -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" j3_a -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" j3_c -D L_k=256 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" j3_h -D L_k=64 -D L_j=4 -D P_j=2 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" j3_i -D L_k=64 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" j3_j -D L_k=64 -D L_j=4 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
v jacobi3d "$J" j3_l -D L_k=64 -D L_j=4 -D P_j=4 -D O_j=2 -D P_i=4 -D O_i=2
v jacobi3d "$J" j3_n -D L_k=64 -D L_j=2 -D P_j=8 -D O_j=2 -D P_i=2 -D O_i=2
