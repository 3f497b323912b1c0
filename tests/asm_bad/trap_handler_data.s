// expect: 5:19: the trap handler must be a code label
.const 2
datum: .word 0
.text
    .trap_handler datum
    EXIT ;
