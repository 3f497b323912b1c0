// run: --grid 1 --block 32
// status: 3
// expect: '.end' without '.kernel'
        EXIT ;
.end
