// run: --grid 1 --block 32
// status: 3
// expect: register UR63 out of range
        UMOV UR63, 0x1 ;
        EXIT ;
