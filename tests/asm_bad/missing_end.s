// expect: 2:1: '.kernel k' is missing '.end'
.kernel k
    EXIT ;
