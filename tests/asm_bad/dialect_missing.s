// expect: 3:9: expected a dialect (target, sass, visa or ptx)
.kernel k
.dialect
EXIT ;
.end
