// expect: 3:1: '.shared -1' out of range (0..4294967295)
.kernel k
.shared -1
EXIT ;
.end
