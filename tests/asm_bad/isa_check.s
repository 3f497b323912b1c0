// expect: 2:1: invalid BRA: IllegalBitFieldValue: BRA_U should be used with .DIV/.CONV.
BRA UR4, 0x100 ;
