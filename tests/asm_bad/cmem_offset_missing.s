// expect: 2:15: expected '[offset]' after c[bank]
MOV R1, c[0x0] ;
