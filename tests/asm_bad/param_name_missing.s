// expect: 3:11: expected a parameter name after the type
.kernel k
.param u32
EXIT ;
.end
