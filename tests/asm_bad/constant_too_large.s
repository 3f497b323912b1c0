// expect: 3:9: number too large
.kernel k
.shared 0xffffffffffffffff
EXIT ;
.end
