// expect: 3:1: '.end' without '.kernel'
    EXIT ;
.end
