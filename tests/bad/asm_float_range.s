// run: --grid 1 --block 32
// status: 3
// expect: bad or out-of-range float '1e99'
        FADD R1, R2, 1e99 ;
        EXIT ;
