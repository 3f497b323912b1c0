// expect: 5:5: instruction outside .kernel (this file declares kernels)
.kernel k
    EXIT ;
.end
    NOP ;
