// expect: 4:1: '.kernel' inside kernel 'a' (missing .end)
.kernel a
    EXIT ;
.kernel b
    EXIT ;
.end
