// expect: 3:9: '.' is not allowed in a constant expression
.kernel k
.shared .
EXIT ;
.end
