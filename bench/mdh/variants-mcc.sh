# MCC at the stride-1 ResNet-50 layers, batch 1, no padding (N K P Q C R
# S).  The first run (h100/run1.txt) took the best of these shapes' two
# or more configurations; this one tries the reduction split over blocks
# (G_c) further and register tiles along k read as vectors.
variant mcc "1 64 54 54 64 3 3" "-D L_q=32 -D L_p=2 -D L_k=4 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3"
variant mcc "1 64 54 54 64 3 3" "-D L_q=32 -D L_p=2 -D L_k=4 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3 -D G_c=4"
variant mcc "1 128 26 26 128 3 3" "-D L_q=16 -D L_p=2 -D L_k=8 -D P_k=4 -D P_p=4 -D P_c=4 -D M_f=3 -D G_c=4"
variant mcc "1 128 26 26 128 3 3" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=4 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8"
variant mcc "1 256 12 12 256 3 3" "-D L_q=4 -D L_p=4 -D L_k=16 -D P_k=2 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8"
variant mcc "1 256 12 12 256 3 3" "-D L_q=4 -D L_p=4 -D L_k=16 -D P_k=2 -D P_p=2 -D P_q=2 -D P_c=2 -D M_f=3 -D G_c=16"
variant mcc "1 512 5 5 512 3 3" "-D L_q=1 -D L_k=32 -D L_c=4 -D P_k=2 -D P_p=4 -D P_q=4 -D P_c=4 -D G_c=16"
variant mcc "1 512 5 5 512 3 3" "-D L_q=1 -D L_k=64 -D L_c=2 -D P_k=1 -D P_p=4 -D P_q=4 -D P_c=8 -D G_c=16"
variant mcc "1 256 56 56 64 1 1" "-D L_q=16 -D L_p=2 -D L_k=8 -D P_k=8 -D P_p=2 -D P_q=2 -D P_c=8 -D M_f=3 -D O_k=3"
variant mcc "1 64 56 56 256 1 1" "-D L_q=16 -D L_p=2 -D L_k=8 -D P_k=8 -D P_p=2 -D P_q=2 -D P_c=8 -D M_f=3 -D G_c=4"
# Run 8: the image staged with its window (M_x = 5: the box of p + r and
# q + s in the image's coordinates, docs/mdh.md), r and s tiled by 2 so
# that a box serves four filter taps, the c loop unrolled (R_c = 3), and
# for the 5 x 5 layer p and q one a block (no padded tiles).
variant mcc "1 64 54 54 64 3 3" "-D L_q=32 -D L_p=2 -D L_k=4 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3 -D G_c=4 -D M_x=5"
variant mcc "1 64 54 54 64 3 3" "-D L_q=32 -D L_p=2 -D L_k=4 -D P_k=8 -D P_p=2 -D P_c=2 -D P_r=2 -D P_s=2 -D M_f=3 -D G_c=4 -D M_x=5"
variant mcc "1 64 54 54 64 3 3" "-D L_q=32 -D L_p=2 -D L_k=4 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3 -D G_c=4 -D R_c=3"
variant mcc "1 64 54 54 64 3 3" "-D L_q=32 -D L_p=2 -D L_k=4 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3 -D G_c=4 -D M_x=5 -D R_c=3"
variant mcc "1 64 54 54 64 3 3" "-D L_q=16 -D L_p=4 -D L_k=4 -D P_k=8 -D P_p=2 -D P_q=2 -D P_c=2 -D P_r=2 -D P_s=2 -D M_f=3 -D G_c=4 -D M_x=5"
variant mcc "1 128 26 26 128 3 3" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=4 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8 -D M_x=5"
variant mcc "1 128 26 26 128 3 3" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=4 -D P_p=2 -D P_q=2 -D P_c=2 -D P_r=2 -D P_s=2 -D M_f=3 -D G_c=8 -D M_x=5"
variant mcc "1 128 26 26 128 3 3" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=4 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8 -D R_c=3"
variant mcc "1 128 26 26 128 3 3" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=4 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8 -D M_x=5 -D R_c=3"
variant mcc "1 512 5 5 512 3 3" "-D L_q=1 -D L_k=64 -D L_c=4 -D P_k=2 -D P_c=8 -D G_c=16"
variant mcc "1 512 5 5 512 3 3" "-D L_q=1 -D L_k=32 -D L_c=8 -D P_k=2 -D P_c=4 -D G_c=16 -D M_f=2"
variant mcc "1 512 5 5 512 3 3" "-D L_q=1 -D L_k=64 -D L_c=4 -D P_k=4 -D P_c=4 -D G_c=32 -D M_f=2"
variant mcc "1 512 5 5 512 3 3" "-D L_q=1 -D L_k=64 -D L_c=2 -D P_k=1 -D P_p=4 -D P_q=4 -D P_c=8 -D G_c=16 -D M_x=5"
variant mcc "1 64 56 56 256 1 1" "-D L_q=16 -D L_p=2 -D L_k=8 -D P_k=8 -D P_p=2 -D P_q=2 -D P_c=8 -D M_f=3 -D G_c=4 -D M_x=3"
variant mcc "1 64 56 56 256 1 1" "-D L_q=16 -D L_p=2 -D L_k=8 -D P_k=8 -D P_p=2 -D P_q=2 -D P_c=8 -D M_f=3 -D G_c=4 -D M_x=3 -D R_c=3"
variant mcc "1 64 56 56 256 1 1" "-D L_q=16 -D L_p=2 -D L_k=8 -D P_k=8 -D P_p=2 -D P_q=2 -D P_c=8 -D M_f=3 -D G_c=4 -D M_x=5"
variant mcc "1 64 56 56 256 1 1" "-D L_q=16 -D L_p=2 -D L_k=8 -D P_k=8 -D P_p=2 -D P_q=2 -D P_c=8 -D M_f=3 -D G_c=8 -D M_x=3 -D R_c=3"
variant mcc "1 64 56 56 256 1 1" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=8 -D P_p=2 -D P_q=4 -D O_q=2 -D P_c=8 -D M_f=3 -D G_c=4 -D M_x=3 -D R_c=3"
# the second call: tiles that pad P = Q = 54 and 26 less
variant mcc "1 64 54 54 64 3 3" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3 -D G_c=4 -D R_c=3"
variant mcc "1 64 54 54 64 3 3" "-D L_q=8 -D L_p=4 -D L_k=8 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3 -D G_c=4 -D R_c=3 -D M_x=5"
variant mcc "1 64 54 54 64 3 3" "-D L_q=8 -D L_p=2 -D L_k=16 -D P_k=4 -D P_p=4 -D P_c=4 -D M_f=3 -D G_c=4 -D R_c=3"
variant mcc "1 64 54 54 64 3 3" "-D L_q=32 -D L_p=2 -D L_k=4 -D P_k=8 -D P_p=2 -D P_c=4 -D M_f=3 -D G_c=2 -D R_c=3"
variant mcc "1 128 26 26 128 3 3" "-D L_q=2 -D L_p=2 -D L_k=32 -D P_k=4 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8 -D R_c=3"
variant mcc "1 128 26 26 128 3 3" "-D L_q=2 -D L_p=2 -D L_k=32 -D P_k=4 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8 -D R_c=3 -D M_x=5"
variant mcc "1 128 26 26 128 3 3" "-D L_q=2 -D L_p=2 -D L_k=64 -D P_k=2 -D P_p=2 -D P_q=2 -D P_c=4 -D M_f=3 -D G_c=8 -D M_x=5"
