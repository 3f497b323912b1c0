// run: --grid 1 --block 64
// status: 3
// expect: barrier count 0x21 is not a multiple of 32
        BAR.SYNC 0x1, 0x21 ;
        EXIT ;
