// expect: 2:1: missing modifier for BAR: expected one of .SYNC, .ARV
BAR 0x0 ;
