// expect: 2:13: unterminated '(*' annotation (missing '*)')
BRX R6, 0x0 (*"BRANCH_TARGETS .a" ;
