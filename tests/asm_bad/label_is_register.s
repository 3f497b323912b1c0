// expect: 2:1: 'R4' is a register name and cannot be a label
R4:
    EXIT ;
