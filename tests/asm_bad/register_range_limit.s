// expect: 2:11: register range R[254:255] out of range (R0..R254)
IMAD.WIDE R[254:255], R1, R2, RZ ;
