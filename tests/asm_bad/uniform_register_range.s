// expect: 2:9: register UR63 out of range (UR0..UR62 or URZ)
BRA.DIV UR63, 0x0 ;
