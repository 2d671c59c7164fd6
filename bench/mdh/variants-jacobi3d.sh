# Jacobi 3D over a 514^3 grid (512^3 interior): k is contiguous.  The
# first run (h100/run1.txt): best L_k=128 L_j=2 P_j=4 O_j=2, 0.86x copy.
j3() { variant jacobi3d "512 512 512" "$*"; }
j3 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2
j3 -D L_k=128 -D L_j=2 -D P_j=8 -D O_j=2
j3 -D L_k=128 -D P_i=4 -D O_i=2
j3 -D L_k=128 -D P_i=8 -D O_i=2
j3 -D L_k=256 -D P_j=4 -D O_j=2
j3 -D L_k=64 -D L_j=2 -D P_j=8 -D O_j=2
j3 -D L_k=128 -D L_j=2 -D P_j=4 -D O_j=2 -D P_i=2 -D O_i=2
j3 -D L_k=32 -D L_j=4 -D P_k=4 -D O_k=3 -D P_j=4 -D O_j=2
