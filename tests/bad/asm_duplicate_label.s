// run: --grid 1 --block 32
// status: 3
// expect: error
.a:     NOP ;
.a:     EXIT ;
