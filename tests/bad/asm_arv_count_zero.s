// run: --grid 1 --block 64
// status: 3
// expect: BAR.ARV needs a count > 0
        BAR.ARV 0x1, 0x0 ;
        EXIT ;
