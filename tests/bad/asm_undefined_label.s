// run: --grid 1 --block 32
// status: 3
// expect: undefined label '.nowhere'
        BRA `(.nowhere) ;
        EXIT ;
