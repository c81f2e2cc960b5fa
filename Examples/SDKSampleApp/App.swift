import AppConnect
