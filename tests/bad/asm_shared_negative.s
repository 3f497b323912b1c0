// run: --grid 1 --block 32
// status: 3
// expect: out of range (0..4294967295)
.shared -1
        EXIT ;
