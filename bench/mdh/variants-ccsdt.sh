# The CCSD(T) contraction sd_t_d1_1 (H3 H2 H1 P6 P5 P4 H7): p4, then p5,
# contiguous in t3; t2 staged with h7 outermost, more outputs a thread
# (along p6 and h2, which t2 does not depend on) than in the first run
variant ccsdt "16 16 16 16 16 16 16" "-D L_p4=16 -D L_p5=4 -D L_h1=4 -D P_p6=4 -D P_h7=16 -D M_t2=3 -D M_v2=2"
variant ccsdt "16 16 16 16 16 16 16" "-D L_p4=16 -D L_p5=4 -D L_h1=4 -D P_p6=16 -D P_h2=4 -D P_h7=16 -D M_t2=3 -D M_v2=3 -D O_p6=3"
variant ccsdt "16 16 16 16 16 16 16" "-D L_p4=16 -D L_p5=4 -D L_h1=4 -D P_p6=8 -D P_h2=2 -D P_h7=16 -D M_t2=3 -D M_v2=3 -D O_p6=3"
variant ccsdt "24 24 24 24 24 24 24" "-D L_p4=8 -D L_p5=8 -D L_h1=4 -D P_p6=8 -D P_h2=4 -D P_h7=8 -D M_t2=3 -D M_v2=3 -D O_p6=3"
variant ccsdt "24 24 24 24 24 24 24" "-D L_p4=8 -D L_p5=8 -D L_h1=2 -D P_p6=8 -D P_h2=2 -D P_h7=8 -D M_t2=3 -D M_v2=3 -D O_p6=3"
# Run 8: 24^7 with h7's loop unrolled (R_h7 = 3), the occupancy cap, and
# more outputs a thread along h2 or h3 (which t2 does not depend on).
C24="24 24 24 24 24 24 24"
B24="-D L_p4=8 -D L_p5=8 -D L_h1=4 -D P_p6=8 -D M_t2=3 -D M_v2=3 -D O_p6=3"
variant ccsdt "$C24" "$B24 -D P_h2=4 -D P_h7=8 -D R_h7=3"
variant ccsdt "$C24" "$B24 -D P_h2=4 -D P_h7=8 -D R_h7=3 -D B_sm=2"
variant ccsdt "$C24" "$B24 -D P_h2=8 -D P_h7=8 -D R_h7=3"
variant ccsdt "$C24" "$B24 -D P_h2=4 -D P_h3=2 -D P_h7=8 -D R_h7=3"
variant ccsdt "$C24" "$B24 -D P_h2=4 -D P_h7=4 -D R_h7=3"
variant ccsdt "$C24" "$B24 -D P_h2=2 -D P_h3=2 -D P_h7=8 -D R_h7=3"
variant ccsdt "$C24" "-D L_p4=8 -D L_p5=4 -D L_h1=8 -D P_p6=8 -D M_t2=3 -D M_v2=3 -D O_p6=3 -D P_h2=4 -D P_h7=8 -D R_h7=3"
# the second call: around the best of the first (8 x 4 x 8 threads along
# p4, p5, h1)
B8="-D L_p4=8 -D L_p5=4 -D L_h1=8 -D M_t2=3 -D M_v2=3 -D O_p6=3 -D R_h7=3"
variant ccsdt "$C24" "$B8 -D P_p6=8 -D P_h2=4 -D P_h7=8 -D B_sm=2"
variant ccsdt "$C24" "$B8 -D P_p6=8 -D P_h2=2 -D P_h3=2 -D P_h7=8"
variant ccsdt "$C24" "$B8 -D P_p6=8 -D P_h2=2 -D P_h7=8"
variant ccsdt "$C24" "$B8 -D P_p6=8 -D P_h2=4 -D P_h7=4"
variant ccsdt "$C24" "$B8 -D P_p6=4 -D P_h2=4 -D P_h7=8"
variant ccsdt "$C24" "$B8 -D P_p6=8 -D P_h2=4 -D P_h7=8 -D M_v2=4"
variant ccsdt "$C24" "-D L_p4=8 -D L_p5=2 -D L_h1=8 -D P_p5=2 -D O_p5=2 -D M_t2=3 -D M_v2=3 -D O_p6=3 -D R_h7=3 -D P_p6=8 -D P_h2=4 -D P_h7=8"
variant ccsdt "$C24" "-D L_p4=8 -D L_p5=8 -D L_h1=4 -D P_h1=2 -D O_h1=2 -D M_t2=3 -D M_v2=3 -D O_p6=3 -D R_h7=3 -D P_p6=8 -D P_h2=2 -D P_h7=8"
