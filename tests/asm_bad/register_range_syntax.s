// expect: 2:9: bad register range: expected R[first:last]
MOV R1, R[a:b] ;
