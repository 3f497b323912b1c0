// expect: 5:9: duplicate kernel 'k'
.kernel k
    EXIT ;
.end
.kernel k
    EXIT ;
.end
