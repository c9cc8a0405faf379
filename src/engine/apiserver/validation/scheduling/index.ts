// Registers the scheduling group's validators; one import per kind file.
import './priority-class';
