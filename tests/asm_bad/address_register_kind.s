// expect: 2:9: the address register must be a register (Rn)
LDG R1, [UR2.64] ;
