// run: --grid 1 --block 32
// status: 3
// expect: is missing '.end'
.kernel k
        EXIT ;
