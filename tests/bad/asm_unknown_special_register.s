// run: --grid 1 --block 32
// status: 3
// expect: got 'SR_BOGUS'
        S2R R0, SR_BOGUS ;
        EXIT ;
