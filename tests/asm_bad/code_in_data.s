// expect: 3:5: instruction in a constant section (use .text)
.const 3
    EXIT ;
