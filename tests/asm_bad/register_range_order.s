// expect: 2:11: bad register range R[5:4]
IMAD.WIDE R[5:4], R1, R2, RZ ;
