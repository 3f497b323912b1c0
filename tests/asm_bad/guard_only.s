// expect: 2:1: expected an instruction mnemonic
@P0 ;
