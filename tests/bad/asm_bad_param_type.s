// run: --grid 1 --block 32
// status: 3
// expect: bad .param type 'u128'
.param u128 n
        EXIT ;
