// run: --grid 1 --block 32
// status: 3
// expect: out of range for UImm4
        BAR.SYNC 0x10 ;
        EXIT ;
