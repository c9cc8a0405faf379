// Loads every group's validators (each group's index registers its kinds).
import './core';
import './apps';
import './batch';
import './autoscaling';
import './policy';
import './discovery';
import './networking';
import './rbac';
import './coordination';
import './events';
import './scheduling';
import './storage';
import './admissionregistration';
import './apiextensions';
import './apiregistration';
export { validatorFor } from './registry';
