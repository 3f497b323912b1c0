// expect: 2:1: expected an instruction, a directive or a label
0x10 ;
