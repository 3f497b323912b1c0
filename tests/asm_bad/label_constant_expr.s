// expect: 4:7: label 'here' is not allowed in a constant expression
.const 2
here:
.zero here
