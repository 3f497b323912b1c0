// expect: 7:5: unknown instruction 'FOO'
// expect: 8:9: register R300 out of range
// expect: 9:15: operand 2: immediate 0x1000 out of range for UImm12
// expect: 10:9: undefined label 'missing'
// expect: 12:1: unknown directive '.bogus'
// expect: 13:22: operand 1: unaligned branch target 0x4
    FOO R1 ;
MOV R1, R300 ;
BAR.SYNC 0x1, 0x1000 ;
    BRA missing ;
    EXIT ;
.bogus
    NOP ; EXIT ; BRA 0x4 ;
