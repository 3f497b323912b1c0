// expect: 2:4: unknown modifier '.FOO' for BAR
BAR.FOO 0x0 ;
