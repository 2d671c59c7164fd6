# MatMul at 4096^3.  Register tiles up to 8 x 8 (128 x 128 a block of 256
# threads), A and B staged: M_X = 2 the buffer's order, 3 the reduced dim
# outermost, 4 that padded; with O > 1 and P a multiple of 4 (and M_X >
# 2) the tiles are read as vectors of 4, O = 3 in runs of 4 4 L apart
# (docs/mdh.md).  M_2 = 2 double-buffers the staged tiles (one barrier a
# round, the next round's copy before this round's arithmetic).  Run 2
# (h100/run2.txt) had M_2 = 1 only; run 3 pairs each tile choice with
# and without the double buffer.
mm() { variant matmul "4096 4096 4096" "$*"; }
T88="-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=8 -D M_A=4 -D M_B=3"
for db in 1 2; do
	mm $T88 -D P_k=16 -D O_i=3 -D O_j=3 -D M_2=$db
	mm $T88 -D P_k=16 -D O_i=2 -D O_j=3 -D M_2=$db
	mm $T88 -D P_k=8 -D O_i=3 -D O_j=3 -D M_2=$db
	mm -D L_i=16 -D L_j=8 -D P_i=8 -D P_j=8 -D P_k=16 -D M_A=4 -D M_B=3 -D O_i=3 -D O_j=3 -D M_2=$db
	mm -D L_i=8 -D L_j=16 -D P_i=8 -D P_j=8 -D P_k=16 -D M_A=4 -D M_B=3 -D O_i=3 -D O_j=3 -D M_2=$db
done
mm $T88 -D P_k=4 -D O_i=3 -D O_j=3 -D M_2=2
mm -D L_i=32 -D L_j=8 -D P_i=4 -D P_j=16 -D P_k=16 -D M_A=4 -D M_B=3 -D O_i=3 -D O_j=3 -D M_2=2
