// expect: 4:1: duplicate label 'top' (first defined at line 2)
top:
    EXIT ;
top:
    EXIT ;
